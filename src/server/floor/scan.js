// Scan input of the /floor page. A handheld's scanner is a keyboard (wedge): it types the code
// into the focused input and presses Enter. The camera reads codes through the browser's
// BarcodeDetector where there is one (Chrome on Android; feature-detected, never polyfilled).

/** Calls onScan(text) for each line entered into `input`; keeps the input focused for the scanner. */
export function wedge(input, onScan) {
  input.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    const text = input.value.trim();
    input.value = '';
    if (text) onScan(text);
  });
}

export const cameraAvailable = () => 'BarcodeDetector' in window && Boolean(navigator.mediaDevices && navigator.mediaDevices.getUserMedia);

/**
 * Reads one code with the camera into `video`; resolves with its text, or null when stopped.
 * The returned object's stop() ends it (and the camera).
 */
export function cameraScan(video) {
  let stopped = false;
  let stream = null;
  const stop = () => {
    stopped = true;
    if (stream) stream.getTracks().forEach((t) => t.stop());
    video.srcObject = null;
    video.hidden = true;
  };
  const result = (async () => {
    const detector = new window.BarcodeDetector();
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
    if (stopped) {
      stop(); // stopped while the camera was starting
      return null;
    }
    video.srcObject = stream;
    video.hidden = false;
    await video.play();
    while (!stopped) {
      const codes = await detector.detect(video).catch(() => []);
      if (codes.length) {
        const text = codes[0].rawValue;
        stop();
        return text;
      }
      await new Promise((r) => requestAnimationFrame(r));
    }
    return null;
  })();
  return { result, stop };
}

/** The refusal signal: a red flash and a buzz (where the device can). */
export function refuse(element) {
  element.classList.remove('flash');
  void element.offsetWidth; // restart the animation
  element.classList.add('flash');
  if (navigator.vibrate) navigator.vibrate([120, 60, 120]);
}
