// Seed 004's thread as `GET /api/dialogs/{id}/thread` answers it (docs/server.md "Flows"): the
// thread object as the seed shapes it, sub-threads nested in a message's meta._thread.

export interface FlowMessage {
  id: string;
  sender: 'user' | 'bot';
  text: string;
  timestamp: number;
  isVirtual?: boolean;
  meta: { _thread?: FlowThread; _step?: string; [key: string]: unknown };
}

export interface FlowThread {
  id: string;
  messages: FlowMessage[];
  settings: { briefStatus: { phase: string }; _phaseUpdateSuggestion?: { phase: string; taskId: string } };
}

export interface FlowThreadView {
  dialogId: string;
  member: string;
  /** The seed's string path of the thread shown; "" for the main thread. */
  path: string;
  phase: string;
  /** The main flow is over: it takes no more messages. */
  completed: boolean;
  /** A step of the flow is under way on the server. */
  working: boolean;
  thread: FlowThread;
}
