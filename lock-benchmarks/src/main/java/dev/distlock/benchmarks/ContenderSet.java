package dev.distlock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Every contender of one process, in table order, on one Redis server, and the Redis
 * template the harness itself uses (critical sections, counters, {@code INFO}). Only the
 * contenders asked for are created, so that a process measuring one of them carries no
 * other library's threads.
 */
final class ContenderSet implements AutoCloseable {

	static final String FLOOR = "floor";

	/** Names in table order. */
	static final List<String> ALL = List.of(FLOOR, "distlock-client", "distlock-annotated", "redisson", "si-spin",
			"si-pubsub", "blog");

	/**
	 * Spring Integration's lease, the same as Redisson's watchdog so both renew every 10
	 * s.
	 */
	private static final Duration SI_EXPIRE_AFTER = Duration.ofSeconds(30);

	private final ConfigurableApplicationContext context;

	private final StringRedisTemplate redis;

	private final @Nullable RedissonClient redisson;

	private final List<RedisLockRegistry> registries = new ArrayList<>();

	private final @Nullable ThreadPoolTaskScheduler renewalScheduler;

	private final List<Contender> contenders = new ArrayList<>();

	private final List<String> names = new ArrayList<>();

	/**
	 * Creates the contenders.
	 * @param redisUrl the Redis server
	 * @param wanted ids of the contenders to create
	 * @param renewSpringIntegration whether Spring Integration's registries get a renewal
	 * scheduler; it renews every lock right after acquiring it and every third of the
	 * lease after, and interrupts the renewal in flight when the lock is released, so it
	 * is only set where locks are held for long (scenario 4), as most applications leave
	 * it unset
	 */
	ContenderSet(String redisUrl, Set<String> wanted, boolean renewSpringIntegration) {
		this.context = DistlockFactory.context(redisUrl);
		RedisConnectionFactory connectionFactory = this.context.getBean(RedisConnectionFactory.class);
		this.redis = new StringRedisTemplate(connectionFactory);
		boolean si = wanted.contains("si-spin") || wanted.contains("si-pubsub");
		this.renewalScheduler = (si && renewSpringIntegration) ? renewalScheduler() : null;
		this.redisson = wanted.contains("redisson") ? redisson(redisUrl) : null;
		for (String name : ALL) {
			if (wanted.contains(name)) {
				this.contenders.add(create(name, connectionFactory));
				this.names.add(name);
			}
		}
	}

	private Contender create(String name, RedisConnectionFactory connectionFactory) {
		return switch (name) {
			case FLOOR -> new PingFloor(this.redis);
			case "distlock-client" -> DistlockFactory.client(this.context);
			case "distlock-annotated" -> DistlockFactory.annotated(this.context);
			case "redisson" -> new RedissonLock(this.redisson);
			case "si-spin" -> springIntegration(connectionFactory, RedisLockType.SPIN_LOCK);
			case "si-pubsub" -> springIntegration(connectionFactory, RedisLockType.PUB_SUB_LOCK);
			case "blog" -> new BlogLock(this.redis);
			default -> throw new IllegalArgumentException("Unknown contender " + name);
		};
	}

	private Contender springIntegration(RedisConnectionFactory connectionFactory, RedisLockType type) {
		RedisLockRegistry registry = new RedisLockRegistry(connectionFactory, "si-" + type.name().toLowerCase(),
				SI_EXPIRE_AFTER);
		registry.setRedisLockType(type);
		String lease = "expireAfter " + SI_EXPIRE_AFTER.toSeconds() + " s, not renewed";
		if (this.renewalScheduler != null) {
			registry.setRenewalTaskScheduler(this.renewalScheduler);
			lease = "expireAfter " + SI_EXPIRE_AFTER.toSeconds() + " s, renewed every "
					+ SI_EXPIRE_AFTER.toSeconds() / 3 + " s (renewal scheduler, 1 thread)";
		}
		this.registries.add(registry);
		return new SpringIntegrationLock(registry, type, lease);
	}

	private static ThreadPoolTaskScheduler renewalScheduler() {
		ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
		scheduler.setThreadNamePrefix("si-lock-renewal-");
		scheduler.initialize();
		return scheduler;
	}

	private static RedissonClient redisson(String redisUrl) {
		Config config = new Config();
		config.useSingleServer().setAddress(redisUrl);
		return Redisson.create(config);
	}

	StringRedisTemplate redis() {
		return this.redis;
	}

	List<Contender> contenders() {
		return this.contenders;
	}

	Contender get(String name) {
		int index = this.names.indexOf(name);
		if (index < 0) {
			throw new IllegalArgumentException("Contender " + name + " was not created");
		}
		return this.contenders.get(index);
	}

	@Override
	public void close() {
		this.registries.forEach(RedisLockRegistry::destroy);
		if (this.renewalScheduler != null) {
			this.renewalScheduler.shutdown();
		}
		if (this.redisson != null) {
			this.redisson.shutdown();
		}
		this.context.close();
	}

}
