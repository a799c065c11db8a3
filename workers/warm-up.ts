/** The texts of every encoder's warm-up run (its own module, so MiniLM's chunk does not pull in tfjs). */
export const WARM_UP = ['Warming up the sentence encoder.', 'A second, longer sentence so the warm-up sees a padded batch.'];
