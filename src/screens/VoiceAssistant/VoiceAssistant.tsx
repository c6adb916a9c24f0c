import { useSearch } from 'wouter';
import { Page } from '../../components/ui';

const modeSuffix: Record<string, string> = { tutor: ' - Tutoring Mode', xray: ' - X-ray Lookup' };

/** Later work: the heading (with the mode from the query) and what the screen will show. */
export function VoiceAssistant() {
  const mode = new URLSearchParams(useSearch()).get('mode') ?? '';
  return (
    <Page
      title={`Voice Assistant${modeSuffix[mode] ?? ''}`}
      lead="AI-powered voice assistant with your audiobook library access"
    />
  );
}
