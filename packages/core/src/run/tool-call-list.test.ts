import { describe, expect, it } from 'vitest';
import type { ToolCall } from './run-state.js';
import { ToolCallList } from './tool-call-list.js';

function call(callId: string, status: ToolCall['status'] = 'running', startedSeq = 1): ToolCall {
  return {
    callId,
    name: 'search',
    status,
    input: undefined,
    output: undefined,
    startedSeq,
    completedSeq: status === 'running' ? null : startedSeq + 1,
  };
}

const ids = (list: ToolCallList) => list.toArray().map((item) => `${item.callId}:${item.status}`);

describe('ToolCallList', () => {
  it('adds a new call at the end and puts a known one back in its place, leaving the list it came from as it was', () => {
    const one = ToolCallList.empty.upsert(call('a'));
    const two = one.upsert(call('b'));
    const done = two.upsert(call('a', 'succeeded'));
    expect(ids(one)).toEqual(['a:running']);
    expect(ids(two)).toEqual(['a:running', 'b:running']);
    expect(ids(done)).toEqual(['a:succeeded', 'b:running']);
    expect(done.get('a')?.status).toBe('succeeded');
    expect(done.get('missing')).toBeUndefined();
    expect(done.at(-1)?.callId).toBe('b');
    expect(done.at(2)).toBeUndefined();
    expect([...done].map((item) => item.callId)).toEqual(['a', 'b']);
    expect(JSON.parse(JSON.stringify({ tools: done }))).toEqual({ tools: done.toArray() });
  });

  it('finds each call in lists made from one older list that recorded different calls at the same place', () => {
    const base = ToolCallList.empty.upsert(call('a'));
    const left = base.upsert(call('b'));
    const right = base.upsert(call('c')).upsert(call('b'));
    expect(ids(left)).toEqual(['a:running', 'b:running']);
    expect(ids(right)).toEqual(['a:running', 'c:running', 'b:running']);
    expect(left.indexOf('b')).toBe(1);
    expect(right.indexOf('b')).toBe(2);
    expect(left.indexOf('c')).toBe(-1);
    expect(right.upsert(call('b', 'failed')).get('b')?.status).toBe('failed');
    expect(ids(left.upsert(call('b', 'succeeded')))).toEqual(['a:running', 'b:succeeded']);
    expect(ids(right)).toEqual(['a:running', 'c:running', 'b:running']);
  });

  it('gives two runs started from the empty list indexes of their own', () => {
    const first = ToolCallList.empty.upsert(call('x'));
    const second = ToolCallList.empty.upsert(call('y'));
    expect(first.indexOf('y')).toBe(-1);
    expect(second.indexOf('x')).toBe(-1);
    expect(ToolCallList.empty.length).toBe(0);
  });

  it('keeps toArray the same frozen array for one list', () => {
    const list = ToolCallList.from([call('a'), call('b')]);
    expect(list.toArray()).toBe(list.toArray());
    expect(Object.isFrozen(list.toArray())).toBe(true);
  });
});
