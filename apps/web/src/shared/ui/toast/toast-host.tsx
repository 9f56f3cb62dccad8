import { ToastContainer } from 'react-toastify';

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
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
            <path
              d="M6 6l12 12M18 6L6 18"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            />
          </svg>
        </button>
      )}
    />
  );
}
