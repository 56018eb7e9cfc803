package dev.distlock.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

/**
 * Says once, at startup, that {@code distlock.enabled=false} leaves
 * {@link dev.distlock.DistributedLock @DistributedLock} methods without any lock, so that
 * a switch left off by mistake does not go unnoticed.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "distlock.enabled", havingValue = false)
public final class DistributedLockDisabledAutoConfiguration {

	private static final Log logger = LogFactory.getLog(DistributedLockDisabledAutoConfiguration.class);

	DistributedLockDisabledAutoConfiguration() {
		logger.info("distlock.enabled=false: @DistributedLock methods run without any lock");
	}

}
