import type { StorybookConfig } from '@storybook/react-vite';

/** Stories sit beside the components; the atlas plays the shared scenarios from @kestrel/testing. */
const config: StorybookConfig = {
  stories: ['../packages/*/src/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-docs', '@storybook/addon-a11y', '@storybook/addon-vitest'],
  framework: { name: '@storybook/react-vite', options: {} },
  // The machine has no outside network; telemetry would only produce refused connections.
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  // A workbench for this kit, not a Storybook tutorial: no onboarding checklist in the sidebar.
  features: { sidebarOnboardingChecklist: false },
};

export default config;
