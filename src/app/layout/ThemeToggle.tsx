import Moon from 'lucide-react/icons/moon';
import Sun from 'lucide-react/icons/sun';
import { useTheme } from 'styled-components';
import { IconButton } from '../../components/ui';
import { setSchemePreference } from '../../styles/colorScheme';

/**
 * Dark mode on or off (a toggle button, `aria-pressed`): the app follows the system's choice until
 * the reader presses it; the choice is kept in the browser from then on.
 */
export function ThemeToggle() {
  const dark = useTheme().name === 'dark';
  return (
    <IconButton
      label="Dark mode"
      aria-pressed={dark}
      icon={dark ? Moon : Sun}
      quiet
      onClick={() => setSchemePreference(dark ? 'light' : 'dark')}
    />
  );
}
