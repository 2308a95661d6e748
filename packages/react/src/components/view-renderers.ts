import type { RenderText } from './assistant-text.js';
import type { KestrelLabels } from './labels.js';
import type { RenderPayload } from './payload-panel.js';
import type { ToolRenderers } from './tool-renderer.js';
import type { RenderInteraction } from './use-interaction.js';

/** What a view root (`Run.Root`, `Session.Root`) hands to the run parts below it; `P` is the payload type. */
export interface ViewRenderers<P> {
  /** Renders the structured payload of a COMPLETED run, for `Run.Payload` and `Run.ReceivedOutcome` below. */
  readonly renderPayload?: RenderPayload<P>;
  /** Turns assistant text into elements, for `Run.Text` and `Run.ReceivedOutcome` below; plain text by default. */
  readonly renderText?: RenderText;
  /** Renderers by tool name for the tool calls `Run.Activity` lists; see `toolRenderer`. */
  readonly tools?: ToolRenderers;
  /**
   * Renders a WAITING run's question your way, for `Run.Prompt` below; return `undefined` to keep the kit's UI for
   * that interaction. See `useInteraction`.
   */
  readonly renderInteraction?: RenderInteraction;
  /** Labels for every part below (merged over any `KestrelLabelsProvider` above). */
  readonly labels?: Partial<KestrelLabels>;
  /** Render your own element as the root; the root's attributes are merged onto it. */
  readonly asChild?: boolean;
}
