// Pages shown instead of the three panes: the eval runs (`#/runs`, `#/runs/RUN`) and two trees side
// by side (`#/diff/A/B`). Any other address gives the panes back; main.ts opens the dialog a
// `#/dialog/ID` names. A page that cannot load says why in place (another user's run or tree is
// "not found", as the server answers).
import { h, tr } from './dom';
import { renderDiff } from './diff_view';
import { ADDRESS_SET, pageInAddress } from './route';
import { renderRun, renderRuns } from './runs_page';

let view: HTMLElement | null = null;
let shown = 0; // the latest render: an older one that finishes late draws nothing

function showPage(): void {
  const page = pageInAddress();
  const panes = document.querySelector<HTMLElement>('main.layout');
  const tabs = document.querySelector<HTMLElement>('.pane-tabs');
  if (!view || !panes) return;
  view.hidden = !page;
  panes.hidden = !!page;
  if (tabs) tabs.classList.toggle('page-open', !!page);
  document.body.dataset.page = page?.kind ?? '';
  if (!page) return;
  const mine = ++shown;
  const body = h('div', { class: 'page-body', testid: `page-${page.kind}` });
  view.replaceChildren(h('a', { href: '#/', class: 'small', testid: 'page-dialogs' }, tr('navDialogs')), body);
  const drawn =
    page.kind === 'runs' ? renderRuns(body) : page.kind === 'run' ? renderRun(body, page.id) : renderDiff(body, page.a, page.b);
  drawn.catch((e: unknown) => {
    if (mine !== shown) return;
    body.replaceChildren(h('div', { class: 'form-error', role: 'alert', testid: 'page-error' }, e instanceof Error ? e.message : String(e)));
  });
  view.focus({ preventScroll: true });
}

/** Adds the page area after the panes and follows the address. */
export function wirePages(): void {
  const panes = document.querySelector<HTMLElement>('main.layout');
  if (!panes) return;
  view = h('main', { class: 'page-view', testid: 'page-view', tabindex: '-1' });
  view.hidden = true;
  panes.after(view);
  window.addEventListener('hashchange', showPage);
  window.addEventListener(ADDRESS_SET, showPage);
  showPage();
}
