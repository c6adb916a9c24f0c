import { useState } from 'react';
import { useLocation } from 'wouter';
import { errorMessage } from '../../api/errors';
import { Alert, Button } from '../../components/ui';
import { signOutEverywhere } from '../../features/auth';
import { paths } from '../../lib/paths';
import { Section } from './Section';

/** "Sign out everywhere": every device where the reader is signed in, this one included. */
export function SessionsSection() {
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onClick = async () => {
    setBusy(true);
    setError(null);
    try {
      await signOutEverywhere();
      navigate(paths.login());
    } catch (failure) {
      setError(errorMessage(failure, 'Could not sign out everywhere. Check your connection and try again.'));
      setBusy(false);
    }
  };
  return (
    <Section title="Devices">
      <p>Lost a phone, or signed in on a shared computer? Sign out on every device, this one included.</p>
      {error && <Alert tone="error">{error}</Alert>}
      <div>
        <Button variant="secondary" onClick={() => void onClick()} disabled={busy}>
          {busy ? 'Signing out...' : 'Sign out everywhere'}
        </Button>
      </div>
    </Section>
  );
}
