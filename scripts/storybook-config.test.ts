import { describe, expect, it } from 'vitest';
import config from '../.storybook/main.js';

describe('Storybook', () => {
  it('opens on the atlas, without its onboarding checklist widget or guide page', () => {
    expect(config.features).toMatchObject({ sidebarOnboardingChecklist: false, menuOnboardingChecklist: false });
  });
});
