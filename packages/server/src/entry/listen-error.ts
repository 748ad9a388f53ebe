/** The port could not be listened on; the message names the setting to change. */
export class ListenError extends Error {
  override name = 'ListenError';
}
