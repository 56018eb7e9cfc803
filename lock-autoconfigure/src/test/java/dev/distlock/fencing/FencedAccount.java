package dev.distlock.fencing;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The JPA entity of docs/fencing.md, section "JPA entities": an account with a
 * {@code fence} column. {@link AbstractJpaFencingTests} maps its table to a name of its
 * own per test.
 */
@Entity(name = "Account")
@Table(name = AbstractJpaFencingTests.LOGICAL_TABLE)
class FencedAccount {

	@Id
	private long id;

	private String owner = "";

	private long balance;

	private long fence;

	protected FencedAccount() {
	}

	FencedAccount(long id, String owner, long balance) {
		this.id = id;
		this.owner = owner;
		this.balance = balance;
	}

	long getId() {
		return this.id;
	}

	String getOwner() {
		return this.owner;
	}

	void setOwner(String owner) {
		this.owner = owner;
	}

	long getBalance() {
		return this.balance;
	}

	long getFence() {
		return this.fence;
	}

}
