// The Explore view's presentational panels: everything comes in through props and callbacks.
export { SpaceExplanationPanel, type SpaceExplanationPanelProps, type SpaceRowState } from './SpaceExplanationPanel';
export { DivergenceAlertBanner, type DivergenceAlertBannerProps, type RecentMemoryRef } from './DivergenceAlertBanner';
export { SimilaritySettings, type SimilaritySettingsProps } from './SimilaritySettings';
export { RecallOptionsPanel, ADVANCED_FIELDS, type RecallOptionsPanelProps, type AdvancedOptionName } from './RecallOptionsPanel';
export { MemoryPanel, type MemoryPanelProps } from './MemoryPanel';
export { withFeedbackIcon } from './MemoryFeedback';
export { LateralStatusPanel, type LateralStatusPanelProps } from './LateralStatusPanel';
