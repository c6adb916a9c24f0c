import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { errorMessage } from '../../api/errors';
import { Alert, Button, Dialog, TextField } from '../../components/ui';
import { deleteAccount, FormStack } from '../../features/auth';
import { paths } from '../../lib/paths';
import { Actions, Section } from './Section';

/**
 * Deleting the account, for good: the reader confirms by typing their email in a dialog. Every
 * book, its audio and downloads, uploads, feeds, conversations, listening positions and
 * pronunciations go with it.
 */
export function DeleteAccountSection({ email }: { email: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Section title="Delete your account">
      <p>
        Deletes your account and everything in it: every book with its audio and downloads, your uploads, podcast feeds,
        conversations, listening positions and pronunciations. This cannot be undone.
      </p>
      <div>
        <Button variant="secondary" onClick={() => setOpen(true)}>
          Delete account...
        </Button>
      </div>
      {open && <ConfirmDelete email={email} onClose={() => setOpen(false)} />}
    </Section>
  );
}

function ConfirmDelete({ email, onClose }: { email: string; onClose: () => void }) {
  const [, navigate] = useLocation();
  const [typed, setTyped] = useState('');
  const [mismatch, setMismatch] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const matches = typed.trim().toLowerCase() === email.toLowerCase();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!matches) {
      setMismatch(`Type ${email} to confirm.`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await deleteAccount(typed.trim());
      navigate(paths.login());
    } catch (failure) {
      setError(errorMessage(failure, 'Your account could not be deleted. Check your connection and try again.'));
      setBusy(false);
    }
  };

  return (
    <Dialog title="Delete your account?" subtitle={email} onClose={onClose}>
      <p>Everything in your account is deleted at once, for good. To confirm, type your email address.</p>
      {error && <Alert tone="error">{error}</Alert>}
      <FormStack noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Confirm account deletion">
        <TextField
          label="Your email"
          type="email"
          autoComplete="off"
          value={typed}
          error={mismatch}
          onChange={(event) => {
            setTyped(event.target.value);
            setMismatch(undefined);
          }}
        />
        <Actions>
          <Button type="submit" disabled={busy}>
            {busy ? 'Deleting...' : 'Delete my account and everything in it'}
          </Button>
          <Button type="button" variant="secondary" onClick={onClose} disabled={busy}>
            Keep my account
          </Button>
        </Actions>
      </FormStack>
    </Dialog>
  );
}
