'use client';
import { useSyncExternalStore } from 'react';
import { ActionButton, type ActionButtonProps } from '../action-button.js';
import { useKestrelLabels } from '../default-labels.js';
import { useSessionContext } from './session-context.js';

const atBottomOnServer = () => true;

/** Props of `Session.JumpToLatest`: button attributes, composed with the kit's own (`onClick` runs yours first). */
export type SessionJumpToLatestProps = ActionButtonProps;

/**
 * "Jump to latest": shown once the person has scrolled up from the end of the thread, it scrolls back down and
 * the thread follows streaming runs again. `data-kestrel-action="jump-to-latest"`.
 *
 * @example
 * <Session.JumpToLatest asChild><MyFloatingButton>↓ Latest</MyFloatingButton></Session.JumpToLatest>
 */
export function SessionJumpToLatest({ labels, ...rest }: SessionJumpToLatestProps) {
  const { scroll } = useSessionContext('Session.JumpToLatest');
  const atBottom = useSyncExternalStore(scroll.subscribe, scroll.isAtBottom, atBottomOnServer);
  const t = useKestrelLabels(labels);
  return atBottom ? null : (
    <ActionButton {...rest} action="jump-to-latest" label={t.sessionJumpToLatest} act={scroll.scrollToLatest} />
  );
}
