export { Alert, type AlertTone } from './Alert';
export { Badge, StatusBadge, statusTone } from './Badge';
export { Button, type ButtonProps, type ButtonVariant } from './Button';
export { Card } from './Card';
export { Checkbox } from './Checkbox';
export { Spinner } from './Spinner';
export { FieldMessage, TextField } from './TextField';
export { Lead, Page } from './Page';
