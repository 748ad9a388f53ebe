import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    constants: 'src/constants.ts',
    'text-rules': 'src/text-rules.ts',
    csv: 'src/csv.ts',
    'generate-openapi': 'src/openapi/generate.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
});
