import { describe, expect, it } from 'vitest';
import { ja } from '../locales/ja.js';
import { joinSentences } from './join-sentences.js';

describe('joinSentences', () => {
  it('puts a space between English sentences and none after a full-width stop', () => {
    expect(joinSentences('Not sent.', 'Run finished')).toBe('Not sent. Run finished');
    expect(joinSentences('送信されませんでした。', '実行が完了しました')).toBe(
      '送信されませんでした。実行が完了しました',
    );
    expect(joinSentences('本当？', 'はい')).toBe('本当？はい');
  });

  it('leaves out an empty sentence without a stray space', () => {
    expect(joinSentences('', 'Run finished')).toBe('Run finished');
    expect(joinSentences('Run finished', '')).toBe('Run finished');
  });

  it("joins the Japanese sentences a late answer's note is said with, without a space", () => {
    const note = ja.answerNotTaken('answered-elsewhere');
    expect(joinSentences(note, ja.statusFinished)).toBe(`${note}${ja.statusFinished}`);
  });
});
