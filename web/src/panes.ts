// Narrow windows show one pane at a time, chosen by the tabs (wide ones show all three).
export type Pane = 'left' | 'center' | 'right';

const PANES: readonly Pane[] = ['left', 'center', 'right'];
const isPane = (value: string | undefined): value is Pane => PANES.some((p) => p === value);

export function showPane(pane: Pane): void {
  document.body.dataset.pane = pane;
  document
    .querySelectorAll<HTMLElement>('.pane-tabs [data-pane]')
    .forEach((b) => b.setAttribute('aria-selected', String(b.dataset.pane === pane)));
}

export function wirePaneTabs(): void {
  document.querySelectorAll<HTMLElement>('.pane-tabs [data-pane]').forEach((b) =>
    b.addEventListener('click', () => {
      if (isPane(b.dataset.pane)) showPane(b.dataset.pane);
    }),
  );
  showPane('left');
}
