// Explore's Settings button opens the app's one Settings dialog (src/ui/settings).
export { SettingsDialog, type SettingsDialogProps } from '../settings/SettingsDialog';
