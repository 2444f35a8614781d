// Every UI string, in English and Chinese. `t(key)` looks one up in the current language.

const en = {
  appTitle: 'Parley',
  offlineBanner: 'Offline mode: the built-in scripted model is answering, not a real LLM.',
  authError: 'Not authorised: the access token is missing or wrong. Open the link that `parley serve` printed (with #token=…).',
  connecting: 'connecting…',
  connected: 'live',
  disconnected: 'reconnecting…',
  themeToggle: 'Dark theme',
  themeToggleLight: 'Light theme',
  langToggle: '中文',
  team: 'Team',
  newDialog: 'New dialog',
  member: 'Member',
  taskdocPath: 'Taskdoc path (optional)',
  firstMessage: 'What should the team do?',
  start: 'Start',
  dialogs: 'Dialogs',
  running: 'Running',
  completed: 'Completed',
  archived: 'Archived',
  search: 'Search dialogs…',
  noDialogs: 'No dialogs.',
  tree: 'Dialog tree',
  noDialogSelected: 'Start a dialog or pick one from the list.',
  transcript: 'Transcript',
  thinking: 'Thinking',
  toolCall: 'Tool call',
  toolResult: 'Result',
  failed: 'failed',
  tellask: 'Tellask',
  openSubdialog: 'open subdialog',
  replyFrom: 'Reply from',
  askHuman: 'Question for you',
  yourAnswer: 'Your answer',
  answerThis: 'Answer',
  send: 'Send',
  inputPlaceholder: 'Message the dialog…',
  answerPlaceholder: 'Type your answer…',
  answering: 'Answering:',
  cancel: 'Cancel',
  stop: 'Stop',
  resume: 'Resume',
  q4h: 'Questions for you',
  noQuestions: 'No open questions.',
  askedBy: 'asked by',
  reminders: 'Reminders',
  noReminders: 'No reminders.',
  registry: 'Registry',
  noRegistry: 'No registered subdialogs.',
  taskdoc: 'Taskdoc',
  noTaskdoc: 'This dialog has no Taskdoc.',
  goals: 'Goals',
  constraints: 'Constraints',
  progress: 'Progress',
  interrupted: 'interrupted',
  course: 'Course',
  streamError: 'Stream error',
  streamRetried: 'The model’s stream broke; asking again',
  error: 'Error',
  loadOlder: 'Earlier messages are not shown',
  st_generating: 'generating',
  st_waiting_human: 'waiting for you',
  st_waiting_subdialogs: 'waiting for subdialogs',
  st_queued: 'queued',
  st_idle: 'idle',
  st_failed: 'failed',
  st_dead: 'dead',
  st_completed: 'completed',
  st_archived: 'archived',
  st_running: 'running',
  tokens: 'tokens',
};

export type Key = keyof typeof en;

const zh: Record<Key, string> = {
  appTitle: 'Parley',
  offlineBanner: '离线模式：当前由内置脚本模型应答，而非真实的大模型。',
  authError: '未授权：访问令牌缺失或错误。请打开 `parley serve` 打印的链接（含 #token=…）。',
  connecting: '连接中…',
  connected: '实时',
  disconnected: '重新连接中…',
  themeToggle: '深色主题',
  themeToggleLight: '浅色主题',
  langToggle: 'English',
  team: '团队成员',
  newDialog: '新对话',
  member: '成员',
  taskdocPath: '任务文档路径（可选）',
  firstMessage: '要团队做什么？',
  start: '开始',
  dialogs: '对话',
  running: '进行中',
  completed: '已完成',
  archived: '已归档',
  search: '搜索对话…',
  noDialogs: '没有对话。',
  tree: '对话树',
  noDialogSelected: '开始一个新对话，或从列表中选择一个。',
  transcript: '对话记录',
  thinking: '思考',
  toolCall: '工具调用',
  toolResult: '结果',
  failed: '失败',
  tellask: '诉请',
  openSubdialog: '打开子对话',
  replyFrom: '回复来自',
  askHuman: '向你提问',
  yourAnswer: '你的回答',
  answerThis: '回答',
  send: '发送',
  inputPlaceholder: '给对话发消息…',
  answerPlaceholder: '输入你的回答…',
  answering: '正在回答：',
  cancel: '取消',
  stop: '停止',
  resume: '继续',
  q4h: '待你回答的问题',
  noQuestions: '没有待回答的问题。',
  askedBy: '提问者',
  reminders: '提醒',
  noReminders: '没有提醒。',
  registry: '会话登记',
  noRegistry: '没有登记的子对话。',
  taskdoc: '任务文档',
  noTaskdoc: '此对话没有任务文档。',
  goals: '目标',
  constraints: '约束',
  progress: '进展',
  interrupted: '已中断',
  course: '轮次',
  streamError: '流错误',
  streamRetried: '模型输出流中断，正在重新请求',
  error: '错误',
  loadOlder: '更早的消息未显示',
  st_generating: '生成中',
  st_waiting_human: '等待你的回答',
  st_waiting_subdialogs: '等待子对话',
  st_queued: '排队中',
  st_idle: '空闲',
  st_failed: '失败',
  st_dead: '已放弃',
  st_completed: '已完成',
  st_archived: '已归档',
  st_running: '进行中',
  tokens: '词元',
};

const dictionaries = { en, zh } as const;
export type Lang = keyof typeof dictionaries;

let current: Lang = 'en';

export function setLang(lang: Lang): void {
  current = lang;
}

export function lang(): Lang {
  return current;
}

export function t(key: Key): string {
  return dictionaries[current][key];
}

/** Re-labels every element that names its string with data-i18n (text) or data-i18n-ph (placeholder). */
export function applyI18n(root: ParentNode): void {
  root.querySelectorAll<HTMLElement>('[data-i18n]').forEach((el) => {
    el.textContent = t(el.dataset.i18n as Key);
  });
  root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('[data-i18n-ph]').forEach((el) => {
    el.placeholder = t(el.dataset.i18nPh as Key);
  });
}
