/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

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
