import type { Decorator, Preview } from '@storybook/react-vite';
import '../packages/react/src/theme.css';

const withTheme: Decorator = (Story, context) => (
  <div
    data-kestrel-theme={context.globals.theme === 'dark' ? 'dark' : 'light'}
    style={{ padding: '0.5rem', colorScheme: context.globals.theme === 'dark' ? 'dark' : 'light', background: 'var(--kestrel-bg)', color: 'var(--kestrel-fg)' }}
  >
    <Story />
  </div>
);

const preview: Preview = {
  decorators: [withTheme],
  globalTypes: {
    theme: {
      description: 'Kestrel theme.css colour scheme',
      toolbar: { title: 'Theme', icon: 'mirror', items: ['light', 'dark'], dynamicTitle: true },
    },
  },
  initialGlobals: { theme: 'light' },
  parameters: {
    // Accessibility violations fail the story tests, not just the panel.
    a11y: { test: 'error' },
    controls: { expanded: true },
  },
  tags: ['autodocs'],
};

export default preview;
