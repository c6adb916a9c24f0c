import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { Page, Spinner } from '../../components/ui';
import { useEnvironment } from '../../features/environment';
import { paths } from '../../lib/paths';

const Text = styled.div`
  max-width: 68ch;
  line-height: 1.6;
  h2 {
    font-size: ${({ theme }) => theme.fontSizes.lg};
    margin: ${({ theme }) => `${theme.space(6)} 0 ${theme.space(2)}`};
  }
  p,
  ul {
    margin: 0 0 ${({ theme }) => theme.space(3)};
  }
`;

type Document = 'terms' | 'privacy';

const TITLES: Record<Document, string> = { terms: 'Terms of Service', privacy: 'Privacy Policy' };

function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main>
      <Page title={title}>
        <Text>
          {children}
          <p>
            <Link href={paths.register()}>Back to sign-up</Link> · <Link href={paths.login()}>Sign in</Link>
          </p>
        </Text>
      </Page>
    </main>
  );
}

function TermsText() {
  return (
    <>
      <p>
        Lectio turns text you give it into audiobooks you can listen to. This server is run by its operator: the person
        or organisation who installed it and gave you access. These short terms are Lectio&apos;s defaults; an operator
        may publish their own instead.
      </p>
      <h2>Your books</h2>
      <p>
        Upload only text you have the right to use, for your own listening. What you upload and the audio made from it
        stay yours; the operator keeps them only to give you the service.
      </p>
      <h2>Fair use</h2>
      <p>
        Each account has limits on storage and on how many books convert at once. Do not try to get around them, to
        reach other readers&apos; books, or to disrupt the server.
      </p>
      <h2>No guarantees</h2>
      <p>
        The operator runs Lectio as it is, and may change or stop it. Keep your own copy of anything you cannot afford
        to lose: you can download every finished book.
      </p>
      <h2>Leaving</h2>
      <p>
        You can delete your account at any time from the Account page: your books, their audio and everything else of
        yours are deleted with it.
      </p>
    </>
  );
}

function PrivacyText() {
  return (
    <>
      <p>
        This Lectio server is run by its operator, who is responsible for the data it keeps. This is what it keeps, and
        why.
      </p>
      <h2>What is stored</h2>
      <ul>
        <li>Your email address and a one-way hash of your password (never the password itself).</li>
        <li>
          The text you upload or paste, the web pages you convert, and the audio, covers and downloads made from them.
        </li>
        <li>
          Where you stopped in each book, your pronunciations, your preferred voice, and your conversations with the
          voice assistant.
        </li>
        <li>
          Technical logs (which pages of the server were asked for, and errors, without passwords), kept as long as the
          operator chooses.
        </li>
      </ul>
      <h2>Who sees it</h2>
      <p>
        Only you, through your account, and the operator, who can reach the server&apos;s storage. When a book uses a
        cloud voice (OpenAI or ElevenLabs) or the voice assistant uses a cloud model, the text concerned is sent to that
        provider to be read or answered; the offline voices, and a voice server the operator runs, send nothing to
        anyone else. Your data is not sold or used for advertising.
      </p>
      <h2>Deleting it</h2>
      <p>
        Delete a book from your library, or your whole account from the Account page: everything listed above that is
        yours is deleted from the server at once. Copies in the operator&apos;s backups go when those backups are
        deleted.
      </p>
    </>
  );
}

/**
 * The terms of use or the privacy notice (docs/product.md#session): the operator's own page when
 * they publish one (TERMS_URL, PRIVACY_URL), else Lectio's short defaults.
 */
export function Legal({ document }: { document: Document }) {
  const environment = useEnvironment();
  if (!environment) return <Spinner label="Loading..." />;
  const own = document === 'terms' ? environment.legal?.terms_url : environment.legal?.privacy_url;
  const title = TITLES[document];
  if (own !== undefined) {
    return (
      <Frame title={title}>
        <p>
          The operator of this server publishes its {title}: <a href={own}>read the {title}</a>.
        </p>
      </Frame>
    );
  }
  return <Frame title={title}>{document === 'terms' ? <TermsText /> : <PrivacyText />}</Frame>;
}

export function Terms() {
  return <Legal document="terms" />;
}

export function Privacy() {
  return <Legal document="privacy" />;
}
