// The strings of the "Replay…" action in the dialog header (docs/fork.md "In the web UI"), in
// English and Chinese (merged into i18n.ts's dictionaries, like i18n_runs.ts).

export const replayEn = {
  replay: 'Replay…',
  replayTitle: 'Run this tree again with a change, as a new root (docs/fork.md "Replay")',
  replayForm: 'Replay this tree',
  replayModel: 'Model',
  replayModelHint: 'unchanged',
  replayProvider: 'Provider',
  replayTools: 'Tools',
  replayToolsLive: 'live (in a scratch copy of the workspace)',
  replayToolsRecorded: 'recorded results only',
  replayFrom: 'From event',
  replayFromHint: 'whole tree',
  replayStart: 'Start replay',
};

export const replayZh: Record<keyof typeof replayEn, string> = {
  replay: '重放…',
  replayTitle: '带着改动把这棵树再运行一次，作为新的根对话（docs/fork.md “Replay”）',
  replayForm: '重放这棵树',
  replayModel: '模型',
  replayModelHint: '不变',
  replayProvider: '提供方',
  replayTools: '工具',
  replayToolsLive: '实际运行（在工作区的临时副本中）',
  replayToolsRecorded: '只用录制的结果',
  replayFrom: '从事件',
  replayFromHint: '整棵树',
  replayStart: '开始重放',
};
