// The media bytes the conformance fixtures carry, as base64: a 1x1 red PNG (RGB, 8-bit) and 10 ms of an 8 kHz,
// 8-bit mono PCM WAV square wave. Small enough to inline, real enough that a client can decode them.
export const TEST_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

export const TEST_WAV_BASE64 =
  'UklGRnQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YVAAAACgoKCgoKCgoKCgYGBgYGBgYGBgYKCgoKCgoKCgoKBgYGBgYGBgYGBg' +
  'oKCgoKCgoKCgoGBgYGBgYGBgYGCgoKCgoKCgoKCgYGBgYGBgYGBgYA==';
