// Wire types of docs/server.md (REST and PubChan protocol v1). Fields the UI does not use are omitted.

export interface DialogSummary {
  id: string;
  rootId: string;
  parentId: string | null;
  memberId: string;
  kind: 'root' | 'sub';
  callKind?: string;
  sessionSlug?: string;
  status: 'running' | 'completed' | 'archived' | string;
  title?: string;
  taskDocPath?: string | null;
  course?: number;
  depth?: number;
  generating?: boolean;
  needsDrive?: boolean;
  dead?: boolean;
  openQuestions?: number;
  pendingSubdialogs?: number;
  hasChildren?: boolean;
  inputTokens?: number;
  outputTokens?: number;
  createdAt?: string;
  updatedAt?: string;
  lastError?: string;
  /** Only from GET /api/dialogs/{id} and dialog_state_evt: whether POST resume would drive it. */
  resumable?: boolean;
  resumeReason?: 'interrupted' | 'failed' | 'unanswered_calls' | 'unread_input' | null;
}

export interface ToolCall {
  id: string;
  name: string;
  arguments: unknown;
}

export interface Message {
  seq: number;
  course?: number;
  genseq?: number;
  role: 'user' | 'assistant' | 'tool';
  origin?: string;
  content?: string;
  thinking?: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  toolName?: string;
  ok?: boolean;
  interrupted?: boolean;
  ts?: string;
}

export interface Transcript {
  course: number;
  courses: number;
  messages: Message[];
  total: number;
}

export interface Member {
  id: string;
  name?: string;
  provider?: string;
  /** The kind of provider that answers (after a fallback): `scripted` when no real model does. */
  providerKind?: string;
  model?: string;
  tools?: string[];
}

export interface Team {
  defaultMember?: string;
  language?: string;
  members: Member[];
}

export interface Status {
  version?: string;
  protocol?: number;
  scriptedOffline?: boolean;
  providers?: Record<string, string>;
  authRequired?: boolean;
}

export interface Question {
  dialog: { selfId: string; rootId: string };
  memberId: string;
  course?: number;
  id: string;
  mentionList?: string;
  tellaskContent: string;
  askedAt?: string;
  callId?: string;
}

export interface Reminder {
  index: number;
  content: string;
}

export interface RegistryEntry {
  key: string;
  subdialogId: string;
  agentId: string;
  sessionSlug: string;
  createdAt?: string;
  lastAccessed?: string;
  locked?: boolean;
}

export interface Taskdoc {
  path: string;
  sections: { goals?: string; constraints?: string; progress?: string };
}

/** Any packet from the server; dialog events carry `dialog`, `seq` and maybe `logSeq`. */
export interface Packet {
  type: string;
  dialog?: { selfId: string; rootId?: string };
  seq?: number;
  logSeq?: number;
  course?: number;
  genseq?: number;
  [key: string]: unknown;
}
