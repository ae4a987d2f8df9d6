import { notifications } from '@mantine/notifications';

/** A short confirmation in the corner; its close button is named for screen readers. */
export function notify(message: string, color = 'teal'): void {
  notifications.show({ message, color, closeButtonProps: { 'aria-label': 'Dismiss this message' } });
}
