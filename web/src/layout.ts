// The page's skeleton: top bar, banners, the pane tabs of narrow windows, and the three panes
// (dialogs, the open dialog, questions and side panels). Every string is filled in by applyI18n.
export const LAYOUT_HTML = `
<header class="topbar">
  <div class="brand" data-i18n="appTitle"></div>
  <a href="#/runs" class="nav-link" data-testid="nav-runs" data-i18n="navRuns"></a>
  <div class="conn" data-testid="ws-status" data-state="connecting"></div>
  <div class="spacer"></div>
  <span class="run-control" role="group">
    <button type="button" class="stop-all" data-testid="btn-stop-all"><span class="btn-label" data-i18n="stopAll"></span> <span class="badge small zero" data-testid="running-count" data-count="0">0</span></button>
    <button type="button" class="resume-all" data-testid="btn-resume-all"><span class="btn-label" data-i18n="resumeAll"></span> <span class="badge small zero" data-testid="resumable-count" data-count="0">0</span></button>
  </span>
  <button type="button" class="q4h-button" data-testid="q4h-button">
    <span class="btn-label" data-i18n="q4h"></span>
    <span class="badge zero" data-testid="q4h-badge" data-count="0">0</span>
  </button>
  <button type="button" class="help-button" data-testid="shortcuts-button" aria-keyshortcuts="?" data-i18n-title="shortcutsButton" data-i18n-label="shortcutsButton">?</button>
  <button type="button" data-testid="theme-toggle"></button>
  <button type="button" data-testid="lang-toggle" data-i18n="langToggle"></button>
</header>
<div class="banner offline" data-testid="offline-banner" hidden><span data-i18n="offlineBanner"></span></div>
<div class="banner auth" data-testid="auth-error" role="alert" hidden><span data-i18n="authError"></span></div>
<div class="banner err" data-testid="error-banner" role="alert" hidden><span class="err-text" data-testid="error-text"></span><button type="button" class="dismiss" data-testid="error-dismiss" data-i18n-label="dismiss" data-i18n-title="dismiss">×</button></div>
<div class="banner conn-lost" data-testid="conn-banner" role="status" hidden><span data-i18n="connLost"></span></div>
<nav class="pane-tabs" role="tablist" data-testid="pane-tabs">
  <button type="button" role="tab" data-pane="left" data-testid="pane-left" data-i18n="paneDialogs"></button>
  <button type="button" role="tab" data-pane="center" data-testid="pane-center" data-i18n="paneConversation"></button>
  <button type="button" role="tab" data-pane="right" data-testid="pane-right"><span data-i18n="panePanels"></span> <span class="badge small zero" data-testid="pane-q4h-count">0</span></button>
</nav>
<main class="layout">
  <aside class="left">
    <details class="panel fold" data-testid="new-dialog">
      <summary data-testid="new-dialog-summary"><span data-i18n="newDialog"></span> <kbd>N</kbd></summary>
      <form class="new-form" data-testid="new-form">
        <label><span data-i18n="member"></span><select data-testid="new-member"></select></label>
        <input type="text" data-testid="new-taskdoc" data-i18n-ph="taskdocPath" data-i18n-label="taskdocPath" />
        <textarea rows="3" data-testid="new-content" data-i18n-ph="firstMessage" data-i18n-label="firstMessage" required></textarea>
        <button type="submit" data-testid="new-start" data-i18n="start"></button>
      </form>
    </details>
    <section class="panel grow list-panel" data-testid="dialog-list-panel" aria-labelledby="dialogs-heading">
      <h2 id="dialogs-heading"><span data-i18n="dialogs"></span> <span class="count" data-testid="dialog-count"></span></h2>
      <div class="tabs" role="tablist">
        <button type="button" role="tab" data-tab="running" data-testid="tab-running" data-i18n="running"></button>
        <button type="button" role="tab" data-tab="completed" data-testid="tab-completed" data-i18n="completed"></button>
        <button type="button" role="tab" data-tab="archived" data-testid="tab-archived" data-i18n="archived"></button>
      </div>
      <input type="search" data-testid="dialog-search" data-i18n-ph="search" data-i18n-label="search" aria-keyshortcuts="/" />
      <div class="list-filters">
        <select data-testid="dialog-filter-member" data-i18n-label="filterMember"></select>
        <select data-testid="dialog-filter-date" data-i18n-label="filterDate">
          <option value="" data-i18n="anyDate"></option>
          <option value="today" data-i18n="today"></option>
          <option value="7" data-i18n="last7"></option>
          <option value="30" data-i18n="last30"></option>
        </select>
        <select data-testid="dialog-sort" data-i18n-label="sortBy">
          <option value="created" data-i18n="sortNewest"></option>
          <option value="activity" data-i18n="sortActivity"></option>
        </select>
      </div>
      <ul class="dialog-list" role="listbox" data-testid="dialog-list" data-i18n-label="dialogListLabel"></ul>
      <div class="list-status" data-testid="dialog-list-status" role="status"></div>
      <button type="button" class="more" data-testid="dialog-more" data-i18n="loadMore" hidden></button>
    </section>
    <details class="panel fold" data-testid="team-panel">
      <summary><span data-i18n="team"></span> <span class="count" data-testid="member-count"></span></summary>
      <ul class="members" data-testid="members"></ul>
    </details>
    <section class="panel" data-testid="problems-panel" hidden>
      <h2 data-i18n="problems"></h2>
      <ul class="problems small" data-testid="problems"></ul>
    </section>
    <details class="panel fold" data-testid="tot-start">
      <summary data-i18n="totStartTitle"></summary>
      <p class="muted small" data-testid="tot-unavailable" hidden><span data-i18n="totNeedsOrchestrator"></span>
        <span data-i18n="totDocLink"></span> <code>docs/tot.md</code></p>
      <form class="new-form tot-form" data-testid="tot-form" novalidate>
        <textarea rows="2" data-testid="tot-problem" data-i18n-ph="totProblem" data-i18n-label="totProblem"></textarea>
        <label><span data-i18n="totTaskType"></span><select data-testid="tot-task-type">
          <option value="math_reasoning">math_reasoning</option>
          <option value="creative_writing">creative_writing</option>
          <option value="planning">planning</option>
          <option value="debugging">debugging</option>
          <option value="architecture_design">architecture_design</option>
        </select></label>
        <label><span data-i18n="totStrategy"></span><select data-testid="tot-strategy">
          <option value="" data-i18n="totDefault"></option>
          <option value="BFS">BFS</option>
          <option value="DFS">DFS</option>
        </select></label>
        <div class="tot-numbers">
          <label><span data-i18n="totDepth"></span><input type="text" inputmode="decimal" data-testid="tot-depth" /></label>
          <label><span data-i18n="totBreadth"></span><input type="text" inputmode="decimal" data-testid="tot-breadth" /></label>
          <label><span data-i18n="totThreshold"></span><input type="text" inputmode="decimal" data-testid="tot-threshold" /></label>
        </div>
        <div class="form-error" data-testid="tot-form-error" role="alert" hidden></div>
        <button type="submit" data-testid="tot-submit" data-i18n="totStart"></button>
      </form>
    </details>
  </aside>
  <section class="center" data-testid="center-pane">
    <div class="dialog-head" data-testid="dialog-head" hidden>
      <div class="title-line">
        <h1 class="dlg-title" data-testid="dialog-title"></h1>
        <button type="button" class="link title-edit" data-testid="title-edit" data-i18n-title="editTitle" data-i18n-label="editTitle">✎</button>
        <span class="status" data-testid="dialog-status"></span>
      </div>
      <form class="title-form" data-testid="title-form" hidden novalidate>
        <input type="text" data-testid="title-input" data-i18n-label="titleField" />
        <button type="submit" data-testid="title-save" data-i18n="saveTitle"></button>
        <button type="button" class="link" data-testid="title-cancel" data-i18n="cancel"></button>
        <div class="form-error" data-testid="title-error" role="alert" hidden></div>
      </form>
      <div class="actions">
        <span class="view-switch" role="group">
          <button type="button" data-testid="view-transcript" data-i18n="transcript" aria-pressed="true"></button>
          <button type="button" data-testid="view-records" data-i18n="records" aria-pressed="false"></button>
        </span>
        <button type="button" data-testid="btn-interrupt" data-i18n="stop"></button>
        <button type="button" data-testid="btn-resume" data-i18n="resume"></button>
        <button type="button" data-testid="btn-complete" data-i18n="markDone" hidden></button>
        <button type="button" data-testid="btn-archive" data-i18n="archive" hidden></button>
        <button type="button" data-testid="btn-reopen" data-i18n="reopen" hidden></button>
        <button type="button" class="replay-btn" data-testid="btn-replay" aria-expanded="false" aria-controls="replay-form" data-i18n-title="replayTitle" data-i18n-label="replay" hidden><span class="btn-label" data-i18n="replay"></span></button>
      </div>
      <form class="replay-form" id="replay-form" data-testid="replay-form" data-i18n-label="replayForm" hidden novalidate>
        <label><span data-i18n="replayModel"></span> <input type="text" data-testid="replay-model" data-i18n-ph="replayModelHint" autocomplete="off" /></label>
        <label><span data-i18n="replayProvider"></span> <input type="text" data-testid="replay-provider" list="replay-providers" data-i18n-ph="replayModelHint" autocomplete="off" /></label>
        <datalist id="replay-providers" data-testid="replay-providers"></datalist>
        <label><span data-i18n="replayTools"></span> <select data-testid="replay-tools"><option value="live" data-i18n="replayToolsLive"></option><option value="recorded" data-i18n="replayToolsRecorded"></option></select></label>
        <label><span data-i18n="replayFrom"></span> <input type="text" inputmode="numeric" data-testid="replay-from" data-i18n-ph="replayFromHint" autocomplete="off" /></label>
        <button type="submit" data-testid="replay-submit" data-i18n="replayStart"></button>
        <button type="button" class="link" data-testid="replay-cancel" data-i18n="cancel"></button>
        <div class="form-error" data-testid="replay-error" role="alert" hidden></div>
      </form>
      <div class="form-error head-error" data-testid="head-error" role="alert" hidden></div>
    </div>
    <details class="tree-box" data-testid="tree-box" open hidden>
      <summary data-testid="tree-summary" data-i18n="tree"></summary>
      <ul class="tree" role="tree" data-testid="tree" data-i18n-label="treeLabel"></ul>
    </details>
    <div class="tx-scroll" data-testid="transcript-scroll">
      <div class="empty" data-testid="no-dialog" data-i18n="noDialogSelected"></div>
    </div>
    <div class="tx-scroll rec-scroll" data-testid="records-scroll" hidden></div>
    <form class="composer" data-testid="composer" hidden>
      <div class="answer-mode" data-testid="answer-mode" hidden>
        <span data-i18n="answering"></span> <span class="q-text" data-testid="answer-question-text"></span>
        <button type="button" class="link" data-testid="answer-cancel" data-i18n="cancel"></button>
      </div>
      <div class="composer-note" data-testid="composer-note" hidden></div>
      <div class="composer-attachment" data-testid="composer-attachment" hidden>
        <span class="att-name" data-testid="composer-attachment-name"></span>
        <input type="text" data-testid="composer-attachment-words">
        <button type="button" class="link" data-testid="composer-attachment-remove" data-i18n="removeAttachment"></button>
      </div>
      <div class="composer-row">
        <input type="file" data-testid="file-input" hidden
               accept="image/png,image/jpeg,image/gif,image/webp,audio/mpeg,audio/wav,audio/ogg">
        <button type="button" class="attach-btn" data-testid="attach" data-i18n="attachShort"></button>
        <textarea rows="2" data-testid="input" data-i18n-ph="inputPlaceholder"></textarea>
        <button type="submit" data-testid="send" data-i18n="send"></button>
      </div>
    </form>
  </section>
  <aside class="right">
    <section class="panel" data-testid="q4h-panel" id="q4h-panel">
      <h2><span data-i18n="q4h"></span> <span class="badge small zero" data-testid="q4h-panel-count">0</span></h2>
      <ul class="questions" data-testid="q4h-list"></ul>
    </section>
    <section class="panel" data-testid="reminders-panel">
      <h2 data-i18n="reminders"></h2>
      <div data-testid="reminders"></div>
    </section>
    <section class="panel" data-testid="registry-panel">
      <h2 data-i18n="registry"></h2>
      <div data-testid="registry"></div>
    </section>
    <section class="panel" data-testid="taskdoc-panel">
      <h2 data-i18n="taskdoc"></h2>
      <div data-testid="taskdoc"></div>
    </section>
  </aside>
</main>
<div class="sr-only" data-testid="announcer" aria-live="polite"></div>
<div class="overlay" data-testid="shortcuts" hidden>
  <div class="overlay-box" role="dialog" aria-modal="true" aria-labelledby="shortcuts-heading">
    <h2 id="shortcuts-heading" data-i18n="shortcuts"></h2>
    <dl class="keys">
      <dt><kbd>N</kbd></dt><dd data-i18n="scNew"></dd>
      <dt><kbd>/</kbd></dt><dd data-i18n="scSearch"></dd>
      <dt><kbd>Ctrl</kbd>+<kbd>Enter</kbd></dt><dd data-i18n="scSend"></dd>
      <dt><kbd>A</kbd></dt><dd data-i18n="scAnswer"></dd>
      <dt><kbd>↑</kbd> <kbd>↓</kbd> <kbd>Home</kbd> <kbd>End</kbd></dt><dd data-i18n="scList"></dd>
      <dt><kbd>←</kbd> <kbd>→</kbd></dt><dd data-i18n="scTree"></dd>
      <dt><kbd>?</kbd></dt><dd data-i18n="scHelp"></dd>
    </dl>
    <button type="button" data-testid="shortcuts-close" data-i18n="scClose"></button>
  </div>
</div>`;
