import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { describeError } from '../api/api-error';

/**
 * A modal dialog on the native `<dialog>`: focus moves into it and stays there, Escape closes it,
 * and the page behind cannot be reached meanwhile. Mounted only while open.
 */
export function Dialog(props: { readonly title: string; readonly children: ReactNode; readonly onClose: () => void; readonly testId?: string }) {
  const reference = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = reference.current;
    if (!dialog || dialog.open) return undefined;
    // Test DOMs without showModal still show the dialog, just not modally.
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
    return () => {
      if (dialog.open && typeof dialog.close === 'function') dialog.close();
    };
  }, []);
  return (
    <dialog
      ref={reference}
      className="dialog"
      aria-labelledby={titleId}
      data-testid={props.testId}
      onCancel={(event) => {
        // Escape: closed by the owner's state, not behind React's back.
        event.preventDefault();
        props.onClose();
      }}
    >
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
    </dialog>
  );
}

/** "Are you sure?" before something that cannot be undone; shows progress and the API's refusal. */
export function ConfirmDialog(props: {
  readonly title: string;
  readonly children: ReactNode;
  readonly confirmLabel: string;
  readonly busyLabel?: string;
  readonly busy: boolean;
  readonly error: unknown;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}) {
  return (
    <Dialog title={props.title} onClose={props.onCancel} testId="confirm-dialog">
      <div className="dialog-body">{props.children}</div>
      {props.error ? <p role="alert">{describeError(props.error)}</p> : null}
      <div className="dialog-actions">
        <button type="button" onClick={props.onCancel} disabled={props.busy}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={props.onConfirm} disabled={props.busy} data-testid="confirm-dialog-confirm">
          {props.busy ? (props.busyLabel ?? 'Working…') : props.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}

/** A secret the API shows this once (a token, a link): with a copy button, and a warning that it will not come back. */
export function SecretDialog(props: { readonly title: string; readonly secretLabel: string; readonly secret: string; readonly children?: ReactNode; readonly onClose: () => void }) {
  return (
    <Dialog title={props.title} onClose={props.onClose} testId="secret-dialog">
      <p className="hint">Copy it now: it is shown this once and cannot be read again.</p>
      <CopyField label={props.secretLabel} value={props.secret} testId="secret-dialog-value" />
      {props.children}
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={props.onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}

/** A read-only value to copy (a secret, a command, a URL): selected on focus, with a copy button that says whether it worked. */
export function CopyField(props: { readonly label: string; readonly value: string; readonly testId?: string; readonly multiline?: boolean }) {
  const [copied, setCopied] = useState<'copied' | 'failed'>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied('copied');
    } catch {
      // Clipboard access needs a secure context and permission: the text stays there to select by hand.
      setCopied('failed');
    }
  };
  const shared = { readOnly: true, value: props.value, 'data-testid': props.testId, onFocus: (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => event.currentTarget.select() };
  return (
    <div className="copy-field">
      <label>
        {props.label}
        {props.multiline ? <textarea rows={3} {...shared} /> : <input {...shared} />}
      </label>
      <button type="button" onClick={() => void copy()}>
        Copy
      </button>
      <span role="status" className="hint">
        {copied === 'copied' ? 'Copied.' : copied === 'failed' ? 'Copying was refused: select the text and copy it.' : ''}
      </span>
    </div>
  );
}
