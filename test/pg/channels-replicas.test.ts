import { freshPostgresUrl } from '../helpers/db.js';
import { channelReplicaSuite } from '../helpers/channel-replicas.js';

// Concurrent webhook deliveries and background syncs on two replicas of one PostgreSQL database.
channelReplicaSuite(freshPostgresUrl);
