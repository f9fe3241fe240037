import { freshSqliteUrl } from '../helpers/db.js';
import { channelReplicaSuite } from '../helpers/channel-replicas.js';

// Concurrent webhook deliveries and background syncs on two `fos serve` processes of one SQLite
// file (each with its own connection: writers meet at SQLite's file lock).
channelReplicaSuite(freshSqliteUrl);
