interface FormAlertProps {
  message?: string;
  tone?: 'error' | 'success';
}

/** A form-level message; errors are announced at once (role alert), successes politely. */
export function FormAlert({ message, tone = 'error' }: FormAlertProps) {
  if (!message) return null;
  return (
    <div className={`form-alert form-alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {message}
    </div>
  );
}
