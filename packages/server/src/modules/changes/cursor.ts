import { badRequest } from '../../errors.js';
import { sha256 } from '../../sha256.js';

/**
 * A changes cursor: the organization it belongs to and a position in its feed, sent to callers as opaque text. It
 * names the organization so a cursor of another organization is refused rather than read as a position in this one, and
 * carries a check so a cut or mistyped cursor is refused rather than read as another position.
 */
export interface Cursor {
  organizationId: string;
  position: number;
}

const FORMAT = /^chg1\.([0-9a-f]{32})\.(0|[1-9][0-9]{0,15})\.([A-Za-z0-9_-]{8})$/;

const compact = (uuid: string) => uuid.replaceAll('-', '').toLowerCase();
const checkOf = (payload: string) => sha256(payload, 'base64url').slice(0, 8);

export function encodeCursor({ organizationId, position }: Cursor): string {
  const payload = `chg1.${compact(organizationId)}.${position}`;
  return Buffer.from(`${payload}.${checkOf(payload)}`).toString('base64url');
}

/** What the caller is told to do when a cursor cannot be followed: nothing it holds can be trusted to be complete. */
export const RESTART =
  'start again from a full read: take GET /changes/cursor, read every item, then follow the feed from that cursor';

/** The cursor sent in `field`, or a 400 saying what is wrong with it. */
export function decodeCursor(text: string, organizationId: string, field = 'query.after'): Cursor {
  const decoded = Buffer.from(text, 'base64url').toString('latin1');
  const match = FORMAT.exec(decoded);
  const position = Number(match?.[2]);
  // base64url decoding skips stray characters: only the exact text this server would send for it is a cursor.
  const valid =
    match?.[1] !== undefined &&
    Number.isSafeInteger(position) &&
    match[3] === checkOf(decoded.slice(0, decoded.lastIndexOf('.'))) &&
    Buffer.from(decoded, 'latin1').toString('base64url') === text;
  if (!valid || !match?.[1]) throw badRequest(`${field}: not a cursor of this changes feed; ${RESTART}`);
  if (match[1] !== compact(organizationId)) {
    // A test mode sandbox is a new organization after each reset, so its old cursors end up here too.
    throw badRequest(
      `${field}: this cursor belongs to another organization, or to a sandbox before its reset; ${RESTART}`,
    );
  }
  return { organizationId, position };
}
