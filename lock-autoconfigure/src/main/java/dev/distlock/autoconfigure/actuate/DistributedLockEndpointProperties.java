package dev.distlock.autoconfigure.actuate;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the {@code distlock} actuator endpoint.
 */
@ConfigurationProperties("distlock.endpoint")
public class DistributedLockEndpointProperties {

	private final ForceRelease forceRelease = new ForceRelease();

	public ForceRelease getForceRelease() {
		return this.forceRelease;
	}

	/**
	 * Releasing locks by force through the endpoint.
	 */
	public static class ForceRelease {

		/**
		 * Whether the distlock endpoint offers a delete operation that releases a lock
		 * this instance holds, while its holder still runs.
		 */
		private boolean enabled;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

}
