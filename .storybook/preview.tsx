import type { Decorator, Preview } from '@storybook/react-vite';
import { useLayoutEffect, type ReactNode } from 'react';
import '../packages/react/src/theme.css';

/** The page behind the story takes the theme too, so a dark story is not a dark box on white. */
function ThemedPage({ theme, children }: { theme: 'light' | 'dark'; children: ReactNode }) {
  useLayoutEffect(() => {
    const html = document.documentElement;
    html.setAttribute('data-kestrel-theme', theme);
    html.style.colorScheme = theme;
    document.body.style.background = 'var(--kestrel-background)';
    document.body.style.color = 'var(--kestrel-foreground)';
  }, [theme]);
  return (
    <div
      data-kestrel-theme={theme}
      style={{
        padding: '0.5rem',
        colorScheme: theme,
        background: 'var(--kestrel-background)',
        color: 'var(--kestrel-foreground)',
      }}
    >
      {children}
    </div>
  );
}

const withTheme: Decorator = (Story, context) => (
  <ThemedPage theme={context.globals.theme === 'dark' ? 'dark' : 'light'}>
    <Story />
  </ThemedPage>
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
    controls: { expanded: true, sort: 'requiredFirst' },
  },
  tags: ['autodocs'],
};

export default preview;
