import { useFocusWhenShown } from './focused-alert.tsx';

export interface FormOutcome {
  ok: boolean;
  text: string;
}

/**
 * A form's outcome beside its buttons, a failure read out as an alert. It takes the focus: the
 * pressed button was disabled while the call ran, which dropped the focus to the page.
 */
export function FormResult({ outcome }: { outcome: FormOutcome | null }) {
  return outcome && <Outcome outcome={outcome} />;
}

function Outcome({ outcome }: { outcome: FormOutcome }) {
  const ref = useFocusWhenShown<HTMLSpanElement>();
  return (
    <span
      ref={ref}
      tabIndex={-1}
      className={outcome.ok ? 'text-success' : 'text-danger'}
      role={outcome.ok ? 'status' : 'alert'}
    >
      {outcome.text}
    </span>
  );
}
