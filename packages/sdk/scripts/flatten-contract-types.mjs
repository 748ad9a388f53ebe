// Writes the contract's types as the SDK's published declarations need them: self-contained.
//
// The contract's types are inferred from zod schemas (`z.infer<typeof ItemSchema>`), so its declarations import zod,
// which the published SDK must not depend on. This script asks the TypeScript checker for the resolved type of every
// name the SDK's sources import from '@coinventory/contract' and prints it as a plain object type, with each field's
// description from the contract's OpenAPI document as JSDoc. Nothing is restated by hand: the field lists come from
// the contract, and test/package.test.ts proves each printed type is identical to the contract's.
//
// It also prints the types the SDK derives from the contract's router (src/core/contract-routes.ts, imported as
// '#contract-routes'), resolved the same way: the router's own types need zod and ts-rest.
//
// Output: node_modules/.cache/coinventory-sdk/contract.d.ts, which tsup.config.ts maps '@coinventory/contract' and
// '#contract-routes' to when it bundles the declarations.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
export const OUTPUT = join(root, 'node_modules/.cache/coinventory-sdk/contract.d.ts');
const CONTRACT = '@coinventory/contract';
const CONSTANTS = '@coinventory/contract/constants';
/** The SDK's types derived from the router, and the file that derives them from the real contract types. */
const ROUTER_TYPES = { file: join(root, 'src/core/contract-routes.ts'), names: ['RouteResponses'] };

/** Named enumerations printed by name where a field holds exactly their values. */
const NAMED_UNIONS = [
  'ItemStatus',
  'ItemSort',
  'ConsignmentStatus',
  'InvoiceStatus',
  'InvoiceSort',
  'Scope',
  'WebhookDeliveryStatus',
  'AdjustmentReason',
  'MovementKind',
  'ReservationStatus',
  'ActorType',
];

/** Where the OpenAPI document describes a type whose name differs from its component's, or that is parameters. */
const DOC_SOURCES = {
  CreateItemInput: { component: 'CreateItemBody' },
  UpdateItemInput: { component: 'UpdateItemBody' },
  ErrorBody: { component: 'Error' },
  ListItemsParams: { operation: 'listItems' },
  ListValuationsParams: { operation: 'listItemValuations' },
  ListConsignmentsParams: { operation: 'listConsignments' },
  ListInvoicesParams: { operation: 'listInvoices' },
  ListCategoriesParams: { operation: 'listCategories' },
  ListWarehousesParams: { operation: 'listWarehouses' },
  CreateWebhookEndpointInput: { component: 'CreateWebhookEndpointBody' },
  UpdateWebhookEndpointInput: { component: 'UpdateWebhookEndpointBody' },
  ReplayWebhookInput: { component: 'ReplayWebhookBody' },
  ListWebhookEndpointsParams: { operation: 'listWebhookEndpoints' },
  ListWebhookDeliveriesParams: { operation: 'listWebhookDeliveries' },
  AdjustItemInput: { component: 'AdjustItemBody' },
  CreateReservationInput: { component: 'CreateReservationBody' },
  ListMovementsParams: { operation: 'listItemMovements' },
  ListReservationsParams: { operation: 'listReservations' },
};

/**
 * Every name the SDK's sources import (or re-export) from the contract's root entry, except in the file that
 * derives {@link ROUTER_TYPES}: what it reads of the router is printed resolved instead.
 */
function importedNames() {
  const names = new Set();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.ts') && file !== ROUTER_TYPES.file) {
        const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
        for (const statement of source.statements) {
          const specifier = statement.moduleSpecifier;
          if (!specifier || !ts.isStringLiteral(specifier) || specifier.text !== CONTRACT) continue;
          const bindings = ts.isImportDeclaration(statement)
            ? statement.importClause?.namedBindings
            : statement.exportClause;
          if (!bindings || !('elements' in bindings)) throw new Error(`${file}: import named types from ${CONTRACT}`);
          for (const element of bindings.elements) names.add((element.propertyName ?? element.name).text);
        }
      }
    }
  };
  walk(join(root, 'src'));
  return [...names].sort();
}

function loadOpenApi() {
  const require = createRequire(join(root, 'package.json'));
  return JSON.parse(readFileSync(require.resolve(`${CONTRACT}/openapi.json`), 'utf8'));
}

/** The OpenAPI schema describing `name`, as `{ description?, properties? }`, or undefined. */
function docSchema(openapi, name) {
  const source = DOC_SOURCES[name] ?? { component: name };
  if (source.component) return openapi.components.schemas[source.component];
  for (const [path, item] of Object.entries(openapi.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation.operationId !== source.operation) continue;
      const properties = {};
      for (const p of operation.parameters ?? []) if (p.in === 'query') properties[p.name] = p;
      return { description: `Query parameters of \`${method.toUpperCase()} ${path}\`.`, properties };
    }
  }
  return undefined;
}

/** Follows `$ref`, nullable `anyOf` and arrays to the object schema that describes a field's value. */
function objectSchema(openapi, schema) {
  let current = schema;
  for (let i = 0; current && i < 10; i += 1) {
    if (current.$ref) current = openapi.components.schemas[current.$ref.split('/').pop()];
    else if (current.anyOf) current = current.anyOf.find((s) => s.type !== 'null');
    else if (current.type === 'array' || (Array.isArray(current.type) && current.type.includes('array')))
      current = current.items;
    else return current;
  }
  return current;
}

function jsDoc(text, indent) {
  if (!text) return '';
  const lines = text.replaceAll('*/', '*\\/').split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} *${line ? ` ${line}` : ''}`).join('\n')}\n${indent} */\n`;
}

export function flatten() {
  const names = importedNames();
  const entryFile = join(root, '__contract_entry__.ts');
  const entrySource = [
    `export type { ${names.join(', ')} } from '${CONTRACT}';`,
    `export type { ${NAMED_UNIONS.join(', ')} } from '${CONSTANTS}';`,
    `export type { ${ROUTER_TYPES.names.join(', ')} } from './${relative(root, ROUTER_TYPES.file).replace(/\.ts$/, '.js')}';`,
  ].join('\n');
  const options = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, ...rest) =>
    file === entryFile ? ts.createSourceFile(file, entrySource, ts.ScriptTarget.ES2022) : getSourceFile(file, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => file === entryFile || fileExists(file);
  const program = ts.createProgram([entryFile], options, host);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) throw new Error(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  const checker = program.getTypeChecker();
  const entry = checker.getSymbolAtLocation(program.getSourceFile(entryFile));
  const symbolOf = (name) =>
    checker.getAliasedSymbol(checker.getExportsOfModule(entry).find((symbol) => symbol.name === name));
  const typeOf = (name) => checker.getDeclaredTypeOfSymbol(symbolOf(name));

  const named = new Map(names.map((name) => [typeOf(name), name]));
  const unions = NAMED_UNIONS.map((name) => ({ name, members: new Set(typeOf(name).types) }));
  const openapi = loadOpenApi();
  const F = ts.TypeFlags;

  const needsParens = (text) => /[|&]/.test(text);
  const key = (name) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name));

  /** Same properties, same optionality, and mutually assignable: the same type for every practical purpose. */
  const sameShape = (a, b) => {
    const pa = checker.getPropertiesOfType(a);
    const pb = checker.getPropertiesOfType(b);
    if (pa.length !== pb.length) return false;
    for (const p of pa) {
      const q = checker.getPropertyOfType(b, p.name);
      if (!q || (p.flags & ts.SymbolFlags.Optional) !== (q.flags & ts.SymbolFlags.Optional)) return false;
    }
    return checker.isTypeAssignableTo(a, b) && checker.isTypeAssignableTo(b, a);
  };
  const nameOf = (type) => {
    if (named.has(type)) return named.get(type);
    if (!(type.flags & (F.Object | F.Intersection)) || checker.isArrayType(type)) return undefined;
    for (const [candidate, name] of named) {
      if (candidate.flags & (F.Object | F.Intersection) && sameShape(type, candidate)) return name;
    }
    return undefined;
  };

  function print(type, schema, indent, top = false) {
    const name = top ? undefined : nameOf(type);
    if (name) return name;
    if (type.flags & F.Union) return printUnion(type, schema, indent);
    if (type.flags & F.String) return 'string';
    if (type.flags & F.Number) return 'number';
    if (type.flags & F.Boolean) return 'boolean';
    if (type.flags & F.Null) return 'null';
    if (type.flags & F.Undefined) return 'undefined';
    if (type.flags & F.Unknown) return 'unknown';
    if (type.flags & F.StringLiteral) return JSON.stringify(type.value);
    if (type.flags & F.NumberLiteral) return String(type.value);
    if (type.flags & F.BooleanLiteral) return checker.typeToString(type);
    if (checker.isArrayType(type)) {
      const element = print(checker.getTypeArguments(type)[0], schema, indent);
      const readonly = type.target.symbol?.name === 'ReadonlyArray' ? 'readonly ' : '';
      return `${readonly}${needsParens(element) ? `(${element})` : element}[]`;
    }
    if (type.flags & (F.Object | F.Intersection)) return printObject(type, schema, indent);
    throw new Error(`cannot print ${checker.typeToString(type)} (flags ${type.flags})`);
  }

  function printUnion(type, schema, indent) {
    const members = [...type.types];
    const parts = [];
    for (const union of unions) {
      if ([...union.members].every((m) => members.includes(m))) {
        parts.push(union.name);
        for (const m of union.members) members.splice(members.indexOf(m), 1);
      }
    }
    const isBool = (m) => m.flags & F.BooleanLiteral;
    if (members.filter(isBool).length === 2) {
      parts.push('boolean');
      for (const m of members.filter(isBool)) members.splice(members.indexOf(m), 1);
    }
    const rest = members.map((m) => print(m, schema, indent));
    // Nullish last, as people write them.
    const order = (text) => (text === 'null' ? 1 : text === 'undefined' ? 2 : 0);
    return [...parts, ...rest].sort((a, b) => order(a) - order(b)).join(' | ');
  }

  function printObject(type, schema, indent) {
    if (type.getCallSignatures().length > 0) throw new Error(`cannot print a function: ${checker.typeToString(type)}`);
    const object = objectSchema(openapi, schema);
    const inner = `${indent}  `;
    const lines = [];
    for (const info of checker.getIndexInfosOfType(type)) {
      const keyType = checker.typeToString(info.keyType);
      lines.push(`${inner}[key: ${keyType}]: ${print(info.type, undefined, inner)};`);
    }
    // In the contract's field order (the OpenAPI document keeps it); the checker's order follows zod's mapped types.
    const order = Object.keys(object?.properties ?? {});
    const rank = (property) => (order.includes(property.name) ? order.indexOf(property.name) : order.length);
    const properties = [...checker.getPropertiesOfType(type)].sort((a, b) => rank(a) - rank(b));
    for (const property of properties) {
      const propertySchema = object?.properties?.[property.name];
      const optional = property.flags & ts.SymbolFlags.Optional ? '?' : '';
      const value = print(checker.getTypeOfSymbol(property), propertySchema, inner);
      lines.push(`${jsDoc(propertySchema?.description, inner)}${inner}${key(property.name)}${optional}: ${value};`);
    }
    return lines.length === 0 ? '{}' : `{\n${lines.join('\n')}\n${indent}}`;
  }

  const declarations = names.map((name) => {
    const schema = docSchema(openapi, name);
    return `${jsDoc(schema?.description, '')}export type ${name} = ${print(typeOf(name), schema, '', true)};`;
  });
  for (const name of ROUTER_TYPES.names) {
    const doc = ts.displayPartsToString(symbolOf(name).getDocumentationComment(checker));
    declarations.push(`${jsDoc(doc, '')}export type ${name} = ${print(typeOf(name), undefined, '', true)};`);
  }
  const usedUnions = NAMED_UNIONS.filter((name) => declarations.some((d) => new RegExp(`\\b${name}\\b`).test(d)));
  const text = [
    '// Generated by scripts/flatten-contract-types.mjs from @coinventory/contract. Do not edit.',
    usedUnions.length > 0 ? `import type { ${usedUnions.join(', ')} } from '${CONSTANTS}';` : '',
    '',
    declarations.join('\n\n'),
    '',
  ].join('\n');
  mkdirSync(dirname(OUTPUT), { recursive: true });
  writeFileSync(OUTPUT, text);
  return { file: OUTPUT, names };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { file, names } = flatten();
  console.log(`Contract types flattened: ${relative(root, file)} (${names.length} types)`);
}
