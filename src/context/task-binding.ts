// How a tool call relates to a task of the Tasks extension, as its Context sees it: the task it runs as, and for a
// tool declared `task: { start: 'handler' }` the way to start one. The task machinery (src/tasks) supplies it.

export interface TaskBinding {
  /** The task this run belongs to; undefined until one exists. */
  readonly taskId: string | undefined;
  /**
   * Creates the task and answers the call with it; the handler goes on as the task's work. Resolves at once when the
   * run already is a task, or when this client cannot have one (the work then goes on as an ordinary call).
   */
  start(statusMessage?: string): Promise<void>;
}

/** The binding of a call that can never become a task: `ctx.startTask()` there is a server bug, reported loudly. */
export const NO_TASK: TaskBinding = Object.freeze({
  taskId: undefined,
  start: () =>
    Promise.reject(
      new Error(
        "ctx.startTask() was called by a handler that cannot run as a task: declare @Tool({ task: { support: 'optional' | 'required', start: 'handler' } }).",
      ),
    ),
});

/** A task tool's binding when the call cannot become a task (no extension, 2025, a direct call): work goes on inline. */
export const ORDINARY_CALL: TaskBinding = Object.freeze({ taskId: undefined, start: () => Promise.resolve() });
