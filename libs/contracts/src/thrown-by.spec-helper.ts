/** The value an action throws, for asserting on typed errors' fields. */
export function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected it to throw');
}
