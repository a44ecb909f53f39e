export {
  type PlaybackTracker,
  RealtimePlaybackTracker,
  ReportedPlaybackTracker,
} from './playback-tracker.js';
