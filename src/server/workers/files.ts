import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/types.js';
import { processPendingFiles } from '../../domain/files/index.js';
import type { FileStorage } from '../../domain/files/index.js';

// Runs the image processor (src/domain/files/process.ts) off the request path: kicked after each
// image upload, and on a timer so files left PENDING by a stopped process are picked up. One run
// at a time per process; a kick during a run makes it go round once more.

export class FileProcessor {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    private readonly log: FastifyBaseLogger,
  ) {}

  kick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await processPendingFiles(this.db, this.storage);
        } catch (err) {
          this.log.error({ err }, 'file processing failed');
        }
      } while (this.again);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Also sweeps every intervalMs (fos serve). */
  start(intervalMs: number): this {
    this.timer = setInterval(() => void this.kick(), intervalMs);
    this.timer.unref();
    void this.kick();
    return this;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
