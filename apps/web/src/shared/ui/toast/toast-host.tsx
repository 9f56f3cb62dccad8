import { ToastContainer } from 'react-toastify';
import { ICON_PATHS, StrokeIcon } from '../icon/stroke-icon';

/** Toasts: 5 seconds, no icons, in the theme's colours (global.css), announced politely. */
export default function ToastHost({
  theme,
  closeLabel,
}: {
  theme: 'light' | 'dark';
  closeLabel: string;
}) {
  return (
    <ToastContainer
      position="bottom-right"
      autoClose={5000}
      icon={false}
      theme={theme}
      role="status"
      closeButton={({ closeToast }) => (
        <button
          type="button"
          className="Toastify__close-button"
          aria-label={closeLabel}
          onClick={closeToast}
        >
          <StrokeIcon size={16} d={ICON_PATHS.close} />
        </button>
      )}
    />
  );
}
