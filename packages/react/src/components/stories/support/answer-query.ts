/**
 * Testing Library options that find the answer where it is shown: for 7 seconds after a streamed answer settles,
 * the hidden live region that announced it holds the same text.
 */
export const answerOnly = { ignore: '[aria-live], script, style' };
