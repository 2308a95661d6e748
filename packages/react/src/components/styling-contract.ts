/**
 * The styling contract: the data attributes an app may select on (CSS, tests), kept stable across releases and
 * documented in docs/components.md. Every other attribute the components render is internal and may change.
 * styling-contract.test.ts checks the source, theme.css and the docs against these lists.
 */

/** A part's root, as `data-kestrel-part` names it. */
export type KestrelPart =
  | 'status'
  | 'connection'
  | 'activity'
  | 'tool'
  | 'tool-notice'
  | 'log'
  | 'outcome'
  | 'draft'
  | 'assistant-text'
  | 'announcement'
  | 'finish-notice'
  | 'interaction'
  | 'payload'
  | 'error'
  | 'received-outcome'
  | 'thread'
  | 'entry'
  | 'message'
  | 'asked'
  | 'answer'
  | 'empty'
  | 'load-older'
  | 'composer'
  | 'session-status';

/** A kit button, as `data-kestrel-action` names it: each one acts on the run. */
export type KestrelAction =
  | 'cancel'
  | 'copy'
  | 'retry'
  | 'reconnect'
  | 'follow-again'
  | 'approve'
  | 'reject'
  | 'submit'
  | 'send'
  | 'withdraw'
  | 'send-again'
  | 'load-older'
  | 'jump-to-latest';

/** The public attributes, each with where it is and what it says. */
export const publicDataAttributes = {
  'data-kestrel-run': 'the root (Run.Root, RunView)',
  'data-kestrel-session': 'the root of a conversation (Session.Root, SessionView)',
  'data-history': 'the session root: what is known of older runs',
  'data-kestrel-theme': 'set by the app on any ancestor: light or dark',
  'data-theme': "the app's own switch (next-themes) on any ancestor, read by theme.css: light or dark",
  'data-kestrel-part': 'the root element of each part',
  'data-kestrel-action': 'a kit button that acts on the run',
  'data-kestrel-text': 'the text itself inside draft, assistant-text and received-outcome, without markers',
  'data-kestrel-chunk':
    "inside data-kestrel-text (plain text) and a markdown code block's <code>: a piece of the text ending at a line break",
  'data-phase': "the root: the run's phase",
  'data-status': 'the root, outcome and received-outcome: the output status; tool: the call status',
  'data-state': "a part's own finite state",
  'data-kind': 'finish-notice, interaction, tool-notice, log: which kind',
  'data-payload': 'payload: valid, invalid or unrendered',
  'data-authored': 'payload: app (your renderer) or kit (a notice); interaction: app (your renderInteraction)',
  'data-error-kind': 'error: what broke',
  'data-retryable': 'a FAILED outcome: whether the server said it can be retried',
  'data-kestrel-inspector': 'the root of RunInspector (@kestrel/react/inspector)',
  'data-kestrel-inspector-part': 'each part of the inspector: toolbar, header, timeline, entry, details, ...',
  'data-entry-kind': 'an inspector entry: event, invalid or client',
  'data-session': 'an inspector entry of an event: root or sub-agent',
} as const;

/**
 * Internal element markers inside parts. The kit's own theme.css may select on them (it ships with the
 * components); an app's CSS should not: use the public attributes with element selectors, `className` or `asChild`.
 */
export const themeMarkers = [
  'data-kestrel-heading',
  'data-kestrel-question',
  'data-kestrel-marker',
  'data-kestrel-markdown',
  'data-kestrel-markdown-group',
  'data-kestrel-table-scroll',
  'data-kestrel-prompt',
  'data-kestrel-details',
  'data-kestrel-field',
  'data-kestrel-field-error',
  'data-kestrel-form-error',
  'data-kestrel-option',
  'data-kestrel-required',
  'data-kestrel-expiry',
  'data-kestrel-rejection',
  'data-kestrel-actions',
  'data-kestrel-inspector-cell',
  'data-kestrel-active',
  'data-kestrel-note',
] as const;

/** Internal attributes: kept for the kit's own tests and details, never part of the contract. */
export const internalDataAttributes = [
  'data-announcement',
  'data-retry-mode',
  'data-cancelled-by',
  'data-finish-reason',
  'data-live',
  'data-running-tools',
  'data-tool-status',
  'data-tool-name',
  'data-log-level',
  'data-decision',
  'data-original-kind',
  'data-field-type',
  'data-kestrel-options',
  'data-kestrel-summary',
  'data-kestrel-progress',
  'data-kestrel-reasoning',
  'data-kestrel-where',
  'data-kestrel-after-outcome',
  'data-kestrel-requested-action',
  'data-kestrel-tool-render',
  'data-kestrel-image',
  'data-kestrel-refused-link',
  'data-index',
  'data-origin',
] as const;
