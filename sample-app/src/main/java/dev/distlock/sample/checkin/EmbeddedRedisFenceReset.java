package dev.distlock.sample.checkin;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

import dev.distlock.test.redis.RedisServerProcess;

/**
 * Starts the queues' fences again from zero when this instance has started its own embedded
 * Redis. Fencing tokens are counted in Redis, so a new, empty Redis hands them out from 1 again,
 * while a MariaDB or PostgreSQL database ({@code mariadb} and {@code postgres} profiles) keeps the
 * fences of the previous run: without the reset, every check-in would be refused as stale. Runs
 * once the schema is initialized, before the web server accepts requests.
 * <p>
 * With a Redis of your own, the tokens keep increasing across restarts and nothing is reset.
 */
@Component
class EmbeddedRedisFenceReset implements SmartInitializingSingleton {

	private static final Logger logger = LoggerFactory.getLogger(EmbeddedRedisFenceReset.class);

	private final ObjectProvider<RedisServerProcess> embeddedRedis;

	private final CheckInRepository checkIns;

	EmbeddedRedisFenceReset(ObjectProvider<RedisServerProcess> embeddedRedis, CheckInRepository checkIns) {
		this.embeddedRedis = embeddedRedis;
		this.checkIns = checkIns;
	}

	@Override
	public void afterSingletonsInstantiated() {
		if (this.embeddedRedis.getIfAvailable() != null) {
			this.checkIns.resetFences();
			logger.debug("Reset the check-in queues' fences for the fencing tokens of the new embedded Redis");
		}
	}

}
