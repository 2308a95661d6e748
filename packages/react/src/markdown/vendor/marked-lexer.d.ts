// marked's lexer alone (see marked-lexer.js and scripts/vendor-marked-lexer.ts): the same classes, with marked's types.
export { Lexer, getDefaults } from 'marked';
