// The light/dark theme and the page's language, each remembered in localStorage and toggled by a
// header button. A language change redraws whatever is drawn with words (`relabel`).
import { byTestId as q, h } from './dom';
import { applyI18n, setLang, t, type Lang } from './i18n';

const THEME_KEY = 'parley.theme';
const LANG_KEY = 'parley.lang';

function applyTheme(theme: string): void {
  document.documentElement.dataset.theme = theme === 'dark' ? 'dark' : 'light';
}

function renderThemeButton(): void {
  const dark = document.documentElement.dataset.theme === 'dark';
  const b = q('theme-toggle');
  const label = t(dark ? 'themeToggleLight' : 'themeToggle');
  b.replaceChildren(dark ? '☀' : '☾', h('span', { class: 'btn-label' }, ` ${label}`));
  b.title = label; // phones show the icon alone
  b.setAttribute('aria-pressed', String(dark));
}

/** Applies the remembered (or the browser's) theme and language and wires both toggles. */
export function initThemeAndLanguage(relabel: () => void): void {
  const applyLang = (l: Lang) => {
    setLang(l);
    document.documentElement.lang = l === 'zh' ? 'zh-CN' : 'en';
    applyI18n(document);
    renderThemeButton();
    relabel();
  };
  q('theme-toggle').addEventListener('click', () => {
    const next = document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark';
    localStorage.setItem(THEME_KEY, next);
    applyTheme(next);
    renderThemeButton();
  });
  q('lang-toggle').addEventListener('click', () => {
    const next: Lang = document.documentElement.lang.startsWith('zh') ? 'en' : 'zh';
    localStorage.setItem(LANG_KEY, next);
    applyLang(next);
  });
  applyTheme(localStorage.getItem(THEME_KEY) ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  const savedLang = localStorage.getItem(LANG_KEY);
  applyLang(savedLang === 'zh' || savedLang === 'en' ? savedLang : navigator.language.startsWith('zh') ? 'zh' : 'en');
}
