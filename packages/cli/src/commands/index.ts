import type { CommandSpec } from '../cli/command.js';
import { chatCommand } from './chat.js';
import { demoCommand } from './demo.js';
import { phoneCommand } from './phone.js';
import { simulatorCommand } from './simulator.js';
import { voiceCommand } from './voice.js';

/** Every `parley` command, in the order the help lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  demoCommand,
  chatCommand,
  voiceCommand,
  phoneCommand,
  simulatorCommand,
];
