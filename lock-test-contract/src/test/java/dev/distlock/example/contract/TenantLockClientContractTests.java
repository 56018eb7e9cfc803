package dev.distlock.example.contract;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;

import dev.distlock.LockClient;
import dev.distlock.test.contract.AbstractLockClientContractTests;
import dev.distlock.test.spring.WithRedisTestServer;

/**
 * The lock contract checked as a user checks a wrapper of their own: the suite run
 * against {@link TenantLockClient} around the auto-configured client of a Spring Boot
 * test connected to the test Redis by {@link WithRedisTestServer}.
 */
@SpringBootTest
@WithRedisTestServer
class TenantLockClientContractTests extends AbstractLockClientContractTests {

	@Autowired
	private LockClient lockClient;

	@Override
	protected LockClient client() {
		return new TenantLockClient("acme", this.lockClient);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Application {

	}

}
