import { RATE_LIMIT } from '../../constants.js';
import type { Me } from '../../types.js';

export const me: Me = {
  organization: { id: 'e6bcc96b-4261-492c-b981-7866aa71b487', name: 'Liberty Coin & Bullion', slug: 'liberty-coin' },
  apiKey: {
    id: 'ac788dd2-1306-4252-b428-40c4cf8e20ee',
    name: 'Website sync',
    expiresAt: null,
    scopes: ['read', 'write'],
  },
  rateLimit: { ...RATE_LIMIT },
};
