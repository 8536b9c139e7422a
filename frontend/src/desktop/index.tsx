// The desktop additions to the shared UI, installed by the desktop
// transport (api/wails.ts) so the web build never loads them: the
// credentials dialog (File > Credentials), native saving of reports, a
// reload after File > Import, no logout button (there is no login), and
// the first-render report.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { bindingError, desktop, onEvent, REPORTS_PREFIX } from './bindings';
import { CredentialsDialog } from './Credentials';
import { watchFirstRender } from './firstRender';
import './desktop.css';

/** Events app/shell.go emits. */
export const EVENT_CREDENTIALS = 'desktop:credentials';
export const EVENT_IMPORTED = 'desktop:imported';

const TOAST = 'costpilot:desktop-toast';
const OPEN_CREDENTIALS = 'costpilot:open-credentials';

/** toast shows a short message at the bottom of the window. */
export function toast(message: string, error = false): void {
  window.dispatchEvent(new CustomEvent(TOAST, { detail: { message, error } }));
}

/** openCredentials opens the credentials dialog (for a button elsewhere in the UI). */
export function openCredentials(): void {
  window.dispatchEvent(new Event(OPEN_CREDENTIALS));
}

function DesktopRoot() {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState<{ message: string; error: boolean } | null>(null);
  useEffect(() => {
    const off = onEvent(EVENT_CREDENTIALS, () => setOpen(true));
    const show = () => setOpen(true);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onToast = (e: Event) => {
      setNote((e as CustomEvent<{ message: string; error: boolean }>).detail);
      clearTimeout(timer);
      timer = setTimeout(() => setNote(null), 6000);
    };
    window.addEventListener(OPEN_CREDENTIALS, show);
    window.addEventListener(TOAST, onToast);
    return () => {
      off();
      window.removeEventListener(OPEN_CREDENTIALS, show);
      window.removeEventListener(TOAST, onToast);
    };
  }, []);
  return (
    <>
      {open && <CredentialsDialog onClose={() => setOpen(false)} />}
      {note && (
        <div class={note.error ? 'desktop-toast error' : 'desktop-toast'} role="status">
          {note.message}
        </div>
      )}
    </>
  );
}

/** onReportLink saves a report with the native dialog instead of navigating to it. */
function onReportLink(e: MouseEvent): void {
  const a = (e.target as Element | null)?.closest?.('a[href]');
  const href = a?.getAttribute('href') ?? '';
  if (!href.startsWith(REPORTS_PREFIX)) return;
  e.preventDefault();
  const name = decodeURIComponent(href.slice(REPORTS_PREFIX.length));
  desktop.saveReportAs(name).then(
    (path) => path && toast(`Saved ${path}`),
    (err) => toast(`Cannot save the report: ${bindingError(err).message}`, true),
  );
}

let installed = false;

/** installDesktop adds the desktop parts to the page, once. */
export function installDesktop(): void {
  if (installed) return;
  installed = true;
  document.documentElement.classList.add('desktop');
  document.addEventListener('click', onReportLink, true);
  onEvent(EVENT_IMPORTED, () => window.location.reload());
  const host = document.createElement('div');
  host.id = 'desktop-root';
  const mount = () => {
    document.body.appendChild(host);
    render(<DesktopRoot />, host);
    watchFirstRender((r) => {
      desktop.firstRender(r).catch((e) => console.error('first render report:', bindingError(e).message));
    });
  };
  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount, { once: true });
}
