import { SecretUnreadableError, type SecretKeyring } from '@switchyard/persistence';

// Authenticated with the value: a value sealed as an agent's env value does not open as this.
const PURPOSE = 'workspace secret value';

/** A workspace secret's value as `workspace_secret.sealed_value` keeps it: sealed, never in clear. */
export const workspaceSecretAtRest = {
  seal: (keyring: SecretKeyring, value: string): string => keyring.seal(PURPOSE, value),
  /** Throws `SecretUnreadableError` when no key of the ring sealed it. */
  open: (keyring: SecretKeyring, sealed: string): string => keyring.open(PURPOSE, sealed),
  /** The value, or undefined when the ring cannot open it (a key lost or rotated away). */
  tryOpen(keyring: SecretKeyring, sealed: string): string | undefined {
    try {
      return keyring.open(PURPOSE, sealed);
    } catch (error) {
      if (error instanceof SecretUnreadableError) return undefined;
      throw error;
    }
  },
};
