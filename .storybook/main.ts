import type { StorybookConfig } from '@storybook/react-vite';

/** Stories live in each package's src (the components' in components/stories/); the atlas plays the shared scenarios from @kestrel/testing. */
const config: StorybookConfig = {
  stories: ['../packages/*/src/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-docs', '@storybook/addon-a11y', '@storybook/addon-vitest'],
  framework: { name: '@storybook/react-vite', options: {} },
  // The machine has no outside network; telemetry would only produce refused connections.
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // Open on the atlas: no onboarding checklist in the sidebar, no guide page in the menu.
  features: { sidebarOnboardingChecklist: false, menuOnboardingChecklist: false },
};

export default config;
